entry @ptr_attr_casts_f32_i32(%arg0: tile<ptr<f32, <none>>>, %arg1: tile<ptr<i32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = reshape %arg0 : tile<ptr<f32, <none>>> -> tile<1xptr<f32, <none>>>
  %5 = broadcast %4 : tile<1xptr<f32, <none>>> -> tile<128xptr<f32, <none>>>
  %6 = constant <i32: 128> : tile<i32>
  %7 = muli %1, %6 : tile<i32>
  %8 = reshape %7 : tile<i32> -> tile<1xi32>
  %9 = broadcast %8 : tile<1xi32> -> tile<128xi32>
  %10 = iota : tile<128xi32>
  %11 = addi %9, %10 : tile<128xi32>
  %12 = offset %5, %11 : tile<128xptr<f32, <none>>>, tile<128xi32> -> tile<128xptr<f32, <none>>>
  %13 = ptr_to_int %12 : tile<128xptr<f32, <none>>> -> tile<128xi64>
  %14 = int_to_ptr %13 : tile<128xi64> -> tile<128xptr<f32, <none>>>
  %15 = ptr_to_ptr %14 : tile<128xptr<f32, <none>>> -> tile<128xptr<i32, <none>>>
  %16 = ptr_to_ptr %15 : tile<128xptr<i32, <none>>> -> tile<128xptr<i32>>
  %17, %18 = load_ptr_tko weak %16 token=%0 : tile<128xptr<i32>> -> tile<128xi32>, token
  %19 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %20 = make_tensor_view %19, shape = [1024], strides = [1] : tensor_view<1024xi32, strides=[1]>
  %21 = make_partition_view %20 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>
  %22 = store_view_tko weak %17, %21[%1] token = %18 : tile<128xi32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>, tile<i32> -> token
  return
}
