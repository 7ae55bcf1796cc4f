entry @scratch_reverse_global(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %9 = alloca num_elem = 128, alignment = 16 global : tile<ptr<f32>>
  %10 = reshape %9 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %11 = broadcast %10 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %12 = constant <i32: 0> : tile<128xi32>
  %13 = iota : tile<128xi32>
  %14 = addi %12, %13 : tile<128xi32>
  %15 = offset %11, %14 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
  %16 = store_ptr_tko weak %15, %7 token=%8 : tile<128xptr<f32>>, tile<128xf32> -> token
  %17 = constant <i32: 127> : tile<128xi32>
  %18 = subi %17, %13 : tile<128xi32>
  %19 = offset %11, %18 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
  %20, %21 = load_ptr_tko weak %19 token=%16 : tile<128xptr<f32>> -> tile<128xf32>, token
  %22 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %23 = make_tensor_view %22, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %24 = make_partition_view %23 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %25 = store_view_tko weak %20, %24[%1] token = %21 : tile<128xf32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> token
  return
}
