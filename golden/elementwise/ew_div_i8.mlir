entry @ew_div_i8(%arg0: tile<ptr<i8>>, %arg1: tile<ptr<i8>>, %arg2: tile<ptr<i8>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i8>>
  %5 = make_tensor_view %4, shape = [512], strides = [1] : tensor_view<512xi8, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(256), padding_value = zero, tensor_view<512xi8, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<512xi8, strides=[1]>>, tile<i32> -> tile<256xi8>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<i8>>
  %10 = make_tensor_view %9, shape = [512], strides = [1] : tensor_view<512xi8, strides=[1]>
  %11 = make_partition_view %10 : partition_view<tile=(256), padding_value = zero, tensor_view<512xi8, strides=[1]>>
  %12, %13 = load_view_tko weak %11[%1] token = %8 : partition_view<tile=(256), padding_value = zero, tensor_view<512xi8, strides=[1]>>, tile<i32> -> tile<256xi8>, token
  %14 = divi %7, %12 signed : tile<256xi8>
  %15 = assume div_by<16>, %arg2 : tile<ptr<i8>>
  %16 = make_tensor_view %15, shape = [512], strides = [1] : tensor_view<512xi8, strides=[1]>
  %17 = make_partition_view %16 : partition_view<tile=(256), padding_value = zero, tensor_view<512xi8, strides=[1]>>
  %18 = store_view_tko weak %14, %17[%1] token = %13 : tile<256xi8>, partition_view<tile=(256), padding_value = zero, tensor_view<512xi8, strides=[1]>>, tile<i32> -> token
  return
}
