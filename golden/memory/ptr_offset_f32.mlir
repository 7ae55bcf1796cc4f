entry @ptr_offset_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = reshape %arg0 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %5 = broadcast %4 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %6 = constant <i32: 128> : tile<i32>
  %7 = muli %1, %6 : tile<i32>
  %8 = reshape %7 : tile<i32> -> tile<1xi32>
  %9 = broadcast %8 : tile<1xi32> -> tile<128xi32>
  %10 = iota : tile<128xi32>
  %11 = addi %9, %10 : tile<128xi32>
  %12 = offset %5, %11 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
  %13, %14 = load_ptr_tko weak %12 token=%0 : tile<128xptr<f32>> -> tile<128xf32>, token
  %15 = constant <f32: 3.000000e+00> : tile<128xf32>
  %16 = mulf %13, %15  : tile<128xf32>
  %17 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %18 = make_tensor_view %17, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %19 = make_partition_view %18 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %20 = store_view_tko weak %16, %19[%1] token = %14 : tile<128xf32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> token
  return
}
